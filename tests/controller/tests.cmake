# The unit tests of src/controller/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/airborne_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/box_margin_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/camera_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/characters_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collision_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/controller_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/corner_rest_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/depenetration_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ground_contacts_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ground_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/move_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/push_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ride_clamp_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ride_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/riser_early_out_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/robustness_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/settings_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shape_change_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slide_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/snapshot_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/step_up_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/velocity_test.cpp
)
