# The unit tests of src/scenario/run/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/character_layers_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/input_track_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reference_controller_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rollback_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/scenario_filter_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/simulate_finite_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stance_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/steering_run_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/steering_test.cpp)
