# The unit tests of src/gate/view/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/chromium_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/encoding_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/geometry_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/view_test.cpp)
