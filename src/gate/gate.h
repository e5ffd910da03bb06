// The regression gate (docs/format.md §3) in one include, for cli/ and the
// tests only: no file under src/ includes it; each includes the parts it uses.
// The rooms, each its own library, lowest first:
//   core/      trajectories on disk (csv.h, metadata.h, fingerprint.h), their
//              comparison (diff.h, diff_report.h, tolerances.h), which
//              scenarios and where their goldens are (discovery.h, filter.h,
//              sharding.h, scenario_file.h), the verdict on one scenario and on
//              many (check.h, check_scenarios.h), pending results (pending.h),
//              JUnit, the project file, console, CI detection, exit codes
//   plot/      SVG plots of a run over its golden (plot.h)
//   trace/     every query of a tick (trace.h)
//   view/      the 3D page (view.h)
//   commands/  one library call per command: check_run.h, bless.h, run.h,
//              compare_files.h, validate.h, plot_run.h, trace_run.h,
//              view_run.h, accept.h, review.h, listing.h, probe.h,
//              import_level.h, project_settings.h
#pragma once

#include "gate/commands/accept.h"
#include "gate/commands/bless.h"
#include "gate/commands/check_run.h"
#include "gate/commands/compare_files.h"
#include "gate/commands/listing.h"
#include "gate/commands/plot_run.h"
#include "gate/commands/review.h"
#include "gate/commands/run.h"
#include "gate/commands/trace_run.h"
#include "gate/commands/validate.h"
#include "gate/core/check.h"
#include "gate/core/check_scenarios.h"
#include "gate/core/ci.h"
#include "gate/core/command_hint.h"
#include "gate/core/csv.h"
#include "gate/core/diff.h"
#include "gate/core/diff_report.h"
#include "gate/core/discovery.h"
#include "gate/core/exit_code.h"
#include "gate/core/filter.h"
#include "gate/core/metadata.h"
#include "gate/core/pending.h"
#include "gate/core/run_hash.h"
#include "gate/core/scenario_file.h"
#include "gate/core/sharding.h"
#include "gate/core/tolerances.h"
