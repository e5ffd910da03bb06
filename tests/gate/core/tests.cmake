# The unit tests of src/gate/core/ (tests/CMakeLists.txt adds every folder's list).
list(APPEND STEPSLIDE_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/ci_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/console_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/csv_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/diff_relative_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/diff_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/filter_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/fingerprint_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/junit_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/pending_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/project_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/readable_numbers_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_hash_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/stale_temps_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/tolerances_test.cpp)
