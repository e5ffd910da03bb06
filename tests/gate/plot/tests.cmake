# The unit tests of src/gate/plot/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/parts_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/plot_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/time_view_test.cpp)
