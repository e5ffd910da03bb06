# The unit tests of src/geometry/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/box_box_sweep_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/box_box_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/box_edge_faces_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/box_patch_middle_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/box_sweeps_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/box_triangle_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/capsule_box_penetration_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/capsule_box_sweep_overlap_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/capsule_box_sweep_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/capsule_box_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/capsule_capsule_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/capsule_triangle_penetration_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/capsule_triangle_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gjk_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ray_cylinder_test.cpp
)
