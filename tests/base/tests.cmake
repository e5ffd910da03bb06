# The unit tests of src/base/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/file_io_kinds_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/file_io_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/format_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/glob_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_string_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/portable_math_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/xml_test.cpp)
