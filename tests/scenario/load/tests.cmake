# The unit tests of src/scenario/load/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/bodies_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dynamic_bodies_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/character_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/characters_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/expect_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/height_image_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/input_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/level_include_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/limits_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/load_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mesh_import_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/motion_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/real_level_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schema_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shapes_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/spawn_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tolerance_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/world_box_margin_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/world_cost_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/world_rollback_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/world_scale_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/world_shapes_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/world_test.cpp)
