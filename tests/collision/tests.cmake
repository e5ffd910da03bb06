# The unit tests of src/collision/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/box_box_contacts_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/box_triangle_culls_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cast_memo_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/clearance_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compound_sweeps_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/compound_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contact_filter_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contact_memo_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/convex_sweep_pairs_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cylinder_triangle_sweeps_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lying_cylinder_sweeps_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/query_bounds_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/query_region_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/remembered_farther_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/round_body_sweeps_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sweep_touch_deferred_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sweep_until_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/triangle_cache_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/triangle_pairs_test.cpp
)
