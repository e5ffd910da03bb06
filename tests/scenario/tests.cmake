# The unit tests of the scenario model in src/scenario/ (scenario.h, the trajectory and its columns);
# tests/CMakeLists.txt adds every folder's list.
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/columns_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trajectory_test.cpp)
