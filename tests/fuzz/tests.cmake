# The unit tests of src/fuzz/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/characters_fuzz_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/feature_invariants_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fuzz_input_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fuzz_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generator_pin_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/parallel_test.cpp)
