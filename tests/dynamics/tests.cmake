# The unit tests of src/dynamics/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/contact_solver_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/motion_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/polytope_contacts_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rigid_bodies_test.cpp)
