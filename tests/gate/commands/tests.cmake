# The unit tests of src/gate/commands/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/commands_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gate_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/levels_gate_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/listing_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/perturb_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/project_commands_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/report_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/review_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_stats_test.cpp)
