#include "gate/commands/project_settings.h"

namespace stepslide {

namespace {

/// `value` from the file, unless the command line gave one.
template <class T>
void fill(T& field, const std::optional<T>& value, bool given) {
  if (value && !given) field = *value;
}

/// Applies the project `request.project` names to a copy of `request`.
template <class Request, class Apply>
Expected<Request> merged(const Request& request, Apply apply) {
  Expected<std::optional<Project>> project = select_project(request.project);
  if (!project) return Expected<Request>::failure(project.error());
  Request out = request;
  if (*project) apply(**project, request.project.given, out);
  return out;
}

}  // namespace

Expected<CheckRequest> with_project(const CheckRequest& request) {
  return merged(request, [](const Project& p, const ProjectGiven& given, CheckRequest& out) {
    fill(out.scenario_root, p.scenario_root, given.scenario_root);
    fill(out.golden_dir, p.golden_dir, given.golden_dir);
    fill(out.jobs, p.jobs, given.jobs);
    fill(out.report_dir, p.report_dir, given.report_dir);
    out.project_tolerances = p.tolerances;
  });
}

Expected<BlessRequest> with_project(const BlessRequest& request) {
  return merged(request, [](const Project& p, const ProjectGiven& given, BlessRequest& out) {
    fill(out.scenario_root, p.scenario_root, given.scenario_root);
    fill(out.golden_dir, p.golden_dir, given.golden_dir);
  });
}

Expected<RunRequest> with_project(const RunRequest& request) {
  return merged(request, [](const Project& p, const ProjectGiven& given, RunRequest& out) {
    fill(out.scenario_root, p.scenario_root, given.scenario_root);
  });
}

Expected<CompareRequest> with_project(const CompareRequest& request) {
  return merged(request, [](const Project& p, const ProjectGiven&, CompareRequest& out) {
    out.project_tolerances.tolerances = p.tolerances.tolerances;
  });
}

Expected<PlotRequest> with_project(const PlotRequest& request) {
  return merged(request, [](const Project& p, const ProjectGiven& given, PlotRequest& out) {
    fill(out.scenario_root, p.scenario_root, given.scenario_root);
    out.project_tolerances = p.tolerances;
  });
}

}  // namespace stepslide
