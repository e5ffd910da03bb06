# The unit tests of src/cli/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/cli_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/determinism_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hostile_files_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reference_cli_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/review_cli_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/robustness_test.cpp)
