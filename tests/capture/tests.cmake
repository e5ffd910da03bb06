# The unit tests of src/capture/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/capture_errors_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dynamic_capture_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_text_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/round_trip_test.cpp)
