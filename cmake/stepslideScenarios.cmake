# stepslide_add_scenarios(): a game's own scenario folder as CTest tests,
# one test per scenario file, each running the installed `stepslide check`
# against its golden. Included by stepslideConfig.cmake; needs nothing but
# CMake and the stepslide command installed next to this package.
#
#   stepslide_add_scenarios(DIR
#                           [SCENARIO_ROOT dir]  # golden paths mirror scenario paths below this
#                                                # (default: DIR)
#                           [GOLDEN_DIR dir]     # default: `golden` beside SCENARIO_ROOT
#                           [PREFIX name]        # test names are PREFIX/<path below the root,
#                                                # without .json> (default: scenario)
#                           [LABELS label...])   # CTest labels (default: stepslide)
#
# Relative paths are taken from the calling CMakeLists.txt's folder. Every
# *.json below DIR is a scenario (the list is refreshed whenever the build
# re-runs CMake, so a new scenario becomes a test). A scenario without a
# golden fails, as `stepslide check` does; write goldens with
# `stepslide bless --scenario-root <root> --golden-dir <golden> <file>`.
# Exit codes follow `stepslide check`: 1 a regression or failed expectation,
# 2 an invalid scenario or unreadable golden; either fails the test.

function(stepslide_add_scenarios dir)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SCENARIO_ROOT;GOLDEN_DIR;PREFIX" "LABELS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "stepslide_add_scenarios: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET stepslide::stepslide)
    message(FATAL_ERROR "stepslide_add_scenarios: the stepslide command is not installed with this package "
                        "(expected ${stepslide_EXECUTABLE})")
  endif()
  get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT IS_DIRECTORY "${dir}")
    message(FATAL_ERROR "stepslide_add_scenarios: ${dir} is not a folder")
  endif()
  set(root "${dir}")
  if(DEFINED arg_SCENARIO_ROOT)
    get_filename_component(root "${arg_SCENARIO_ROOT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  file(RELATIVE_PATH below_root "${root}" "${dir}")
  if(below_root MATCHES "^\\.\\.")
    message(FATAL_ERROR "stepslide_add_scenarios: ${dir} is not inside SCENARIO_ROOT ${root}")
  endif()
  get_filename_component(golden "${root}/../golden" ABSOLUTE)
  if(DEFINED arg_GOLDEN_DIR)
    get_filename_component(golden "${arg_GOLDEN_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  set(prefix scenario)
  if(DEFINED arg_PREFIX)
    set(prefix "${arg_PREFIX}")
  endif()
  set(labels stepslide)
  if(DEFINED arg_LABELS)
    set(labels ${arg_LABELS})
  endif()

  file(GLOB_RECURSE scenarios CONFIGURE_DEPENDS "${dir}/*.json")
  list(SORT scenarios)
  if(NOT scenarios)
    message(WARNING "stepslide_add_scenarios: no *.json scenario below ${dir}")
  endif()
  foreach(scenario IN LISTS scenarios)
    file(RELATIVE_PATH rel "${root}" "${scenario}")
    string(REGEX REPLACE "\\.json$" "" name "${rel}")
    add_test(NAME "${prefix}/${name}"
             COMMAND stepslide::stepslide check --color=never --scenario-root "${root}" --golden-dir "${golden}"
                     "${scenario}"
             WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
    set_tests_properties("${prefix}/${name}" PROPERTIES LABELS "${labels}")
  endforeach()
endfunction()
