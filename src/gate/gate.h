// The regression gate (SPEC §3) in one include, for callers that use much of
// it (the CLI, tests, the HTML report). Each part has its own header, and the
// gate's own files include only the parts they use:
//   csv.h, diff.h, diff_report.h   trajectories on disk and their comparison
//   tolerances.h                   --exact and --tol over the default rules
//   discovery.h, sharding.h        which scenarios, where their goldens are
//   metadata.h, scenario_file.h    what a stored trajectory records of its run
//   check.h, check_scenarios.h     the verdict on one scenario, and on many
//   check_run.h, bless.h, run.h,   one library call per command
//   compare_files.h, validate.h,
//   plot_run.h, trace_run.h,
//   accept.h, review.h, listing.h
//   pending.h                      pending results (GOLDEN.csv.new) and the update mode
//   filter.h, ci.h, command_hint.h --filter, CI detection, the commands hints name
#pragma once

#include "gate/accept.h"
#include "gate/bless.h"
#include "gate/check.h"
#include "gate/check_run.h"
#include "gate/check_scenarios.h"
#include "gate/ci.h"
#include "gate/command_hint.h"
#include "gate/compare_files.h"
#include "gate/csv.h"
#include "gate/diff.h"
#include "gate/diff_report.h"
#include "gate/discovery.h"
#include "gate/exit_code.h"
#include "gate/filter.h"
#include "gate/listing.h"
#include "gate/metadata.h"
#include "gate/pending.h"
#include "gate/review.h"
#include "gate/run.h"
#include "gate/scenario_file.h"
#include "gate/sharding.h"
#include "gate/tolerances.h"
#include "gate/trace_run.h"
#include "gate/plot_run.h"
#include "gate/validate.h"
