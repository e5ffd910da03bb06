#!/usr/bin/env python3
"""Markdown tables from stepslide_bench results (--benchmark_format=json).

  tools/bench_table.py RESULT.json            tables for every benchmark family
                                              and the budget lines
  tools/bench_table.py BEFORE.json AFTER.json the same benchmarks side by side,
                                              with the change in time per tick

Standard library only. With --benchmark_repetitions each benchmark's "min"
aggregate is used (stepslide_bench adds it: on a shared machine the fastest
repetition is the least disturbed), else its median; without repetitions its
single run.
"""

import json
import re
import sys

SUFFIXES = re.compile(r"(/(manual_time|real_time|iterations:\d+|repeats:\d+|min_time:[0-9.]+))+$")


def load(path):
    """{clean benchmark name: result entry}: the min aggregate, else the median, else the run."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    chosen, rank = {}, {}
    preference = {"min": 3, "median": 2}
    for entry in data.get("benchmarks", []):
        if entry.get("error_occurred"):
            continue
        name = SUFFIXES.sub("", entry.get("run_name", entry["name"]))
        if entry.get("run_type") == "aggregate":
            level = preference.get(entry.get("aggregate_name"), 0)
        else:
            level = 1
        if level > rank.get(name, 0):
            chosen[name], rank[name] = entry, level
    return data.get("context", {}), chosen


def num(value, digits=3):
    if value is None:
        return "–"
    if isinstance(value, float) and value != 0 and (abs(value) >= 1e5 or abs(value) < 1e-3):
        return f"{value:.{digits}g}"
    return f"{value:.{digits}g}" if isinstance(value, float) else str(value)


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def family(results, prefix):
    """{rest of the name: entry} for names starting with prefix + '/'."""
    return {name[len(prefix) + 1:]: entry for name, entry in results.items() if name.startswith(prefix + "/")}


def split_controller(results, prefix):
    """{scenario: {controller: entry}} for names PREFIX/<scenario>/<controller>."""
    out = {}
    for rest, entry in family(results, prefix).items():
        scenario, _, controller = rest.rpartition("/")
        out.setdefault(scenario, {})[controller] = entry
    return out


def scenario_section(results):
    scenarios = split_controller(results, "scenario")
    if not scenarios:
        return "", []
    rows, ratios = [], []
    for name in sorted(scenarios):
        ours, bullet = scenarios[name].get("stepslide", {}), scenarios[name].get("bullet", {})
        us_ours, us_bullet = ours.get("us_per_tick"), bullet.get("us_per_tick")
        ratio = us_ours / us_bullet if us_ours and us_bullet else None
        if ratio is not None:
            ratios.append((ratio, name))
        rows.append([name, num(us_ours), num(us_bullet), num(ratio, 2), num(ours.get("sweeps_per_tick")),
                     num(bullet.get("sweeps_per_tick")), num(ours.get("ns_per_sweep"), 4),
                     num(bullet.get("ns_per_sweep"), 4),
                     "pass" if ours.get("expectations_failed") == 0 else "FAIL",
                     "pass" if bullet.get("expectations_failed") == 0 else "FAIL"])
    text = "### Time per tick, ours (stepslide) and Bullet's btKinematicCharacterController\n\n" + table(
        ["scenario", "µs/tick ours", "µs/tick bullet", "ratio", "sweeps/tick ours", "sweeps/tick bullet",
         "ns/sweep ours", "ns/sweep bullet", "expect ours", "expect bullet"], rows)
    passed_ours = sum(1 for s in scenarios.values() if s.get("stepslide", {}).get("expectations_failed") == 0)
    passed_bullet = sum(1 for s in scenarios.values() if s.get("bullet", {}).get("expectations_failed") == 0)
    text += f"\n\nExpectations passed: ours {passed_ours}/{len(scenarios)}, bullet {passed_bullet}/{len(scenarios)}."
    return text, ratios


def pair_section(results):
    """The pair/ family: both controllers back to back, the median of the pairs' ratios."""
    entries = family(results, "pair")
    rows, ratios = [], []
    for name, e in sorted(entries.items()):
        ratio = e.get("ratio_median")
        if ratio is not None:
            ratios.append((ratio, name))
        rows.append([name, num(e.get("ours_us_per_tick")), num(e.get("bullet_us_per_tick")), num(ratio, 2)])
    if not rows:
        return "", []
    return "### Paired runs: ours and Bullet's back to back, the median of the pairs' ratios\n\n" + table(
        ["scenario", "µs/tick ours", "µs/tick bullet", "ratio (median of pairs)"], rows), ratios


def breakdown_section(results):
    rows = [[name, num(e.get("us_per_tick")), num(e.get("sweep_share"), 2), num(e.get("outside_sweeps_share"), 2)]
            for name, e in sorted(family(results, "breakdown").items())]
    if not rows:
        return ""
    return "### Share of our tick inside Bullet's convexSweepTest\n\n" + table(
        ["scenario", "µs/tick (hooked)", "in sweeps", "outside sweeps"], rows)


def nanoseconds(entry):
    return entry["real_time"] * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[entry.get("time_unit", "ns")]


def floor_section(results):
    parts = []
    for kind, label in (("bodies", "static bodies"), ("mesh_triangles", "mesh triangles")):
        walk = family(results, "sweep_floor/walk/" + kind)
        probe = family(results, "sweep_floor/probe/" + kind)
        rows = [[count, num(nanoseconds(walk[count]), 4) if count in walk else "–",
                 num(nanoseconds(probe[count]), 4) if count in probe else "–"]
                for count in sorted(set(walk) | set(probe), key=int)]
        if rows:
            parts.append(table([label, "ns: walking sweep (no hit)", "ns: ground probe (hits)"], rows))
    if not parts:
        return ""
    return "### Floor cost: one capsule sweep\n\n" + "\n\n".join(parts)


def iterations_section(results):
    entries = family(results, "iterations")
    if not entries:
        return ""
    grouped = {}
    for rest, e in entries.items():
        match = re.match(r"(.*)/slide:(\d+)/step_up:(\d+)$", rest)
        if match:
            grouped.setdefault(match.group(1), []).append((int(match.group(2)), int(match.group(3)), e))
    parts = []
    for scenario in sorted(grouped):
        rows = [[slide, step_up, num(e.get("us_per_tick")), num(e.get("sweeps_per_tick")),
                 num(e.get("slide_iters_per_tick")), num(e.get("distance_lost_m"), 3), num(e.get("end_error_m"), 3),
                 num(e.get("stuck_ticks")), "pass" if e.get("expectations_failed") == 0 else "FAIL"]
                for slide, step_up, e in sorted(grouped[scenario], key=lambda r: (r[0], r[1]))]
        parts.append(f"`{scenario}`\n\n" + table(
            ["max_slide", "step_up_slide", "µs/tick", "sweeps/tick", "slide iters/tick", "distance lost m",
             "end error m", "stuck ticks", "expect"], rows))
    return "### Iteration trade-off (quality against max_slide 8, step_up_slide 4)\n\n" + "\n\n".join(parts)


def world_size_section(results):
    entries = family(results, "world_size")
    grouped = {}
    for rest, e in entries.items():
        scenario_controller, _, count = rest.rpartition("/")
        grouped.setdefault(scenario_controller, {})[int(count)] = e
    rows, growth = [], []
    for key in sorted(grouped):
        counts = grouped[key]
        smallest = counts[min(counts)].get("us_per_tick")
        for count in sorted(counts):
            us = counts[count].get("us_per_tick")
            ratio = us / smallest if us and smallest else None
            rows.append([key, count, num(us), num(ratio, 2)])
        largest = counts[max(counts)].get("us_per_tick")
        if largest and smallest:
            growth.append((key, min(counts), max(counts), largest / smallest))
    if not rows:
        return "", []
    return "### Tick cost against world size (static clutter boxes)\n\n" + table(
        ["scenario/controller", "clutter boxes", "µs/tick", "× smallest"], rows), growth


def ratio_line(label, ratios):
    """The cost budget on a set of (ratio, scenario): median ≤ 0.5, none above 1.0."""
    ordered = sorted(r for r, _ in ratios)
    median = ordered[(len(ordered) - 1) // 2]
    worst = max(ratios)
    return (f"- {label}: median {median:.2f} (budget ≤ 0.5), worst {worst[0]:.2f} ({worst[1]}), "
            f"{sum(1 for r in ordered if r <= 0.5)}/{len(ordered)} within 0.5, "
            f"{sum(1 for r in ordered if r > 1.0)} above 1.0 (budget: none)")


def budgets(results, ratios, growth, paired=()):
    lines = []
    if ratios:
        lines.append(ratio_line("per-tick cost ours/bullet", ratios))
    if paired:
        lines.append(ratio_line("paired runs ours/bullet", paired))
    scenarios = split_controller(results, "scenario")
    flat = [e["stepslide"]["sweeps_per_tick"] for n, e in scenarios.items()
            if n.startswith("basics/walk_flat") and "stepslide" in e]
    stairs = [(e["stepslide"]["sweeps_per_tick"], n) for n, e in scenarios.items()
              if n.startswith("stairs/") and "stepslide" in e]
    if flat:
        lines.append(f"- flat walking ≤ 2 sweeps/tick: {max(flat):.3g}")
    if stairs:
        worst = max(stairs)
        mean = sum(s for s, _ in stairs) / len(stairs)
        lines.append(f"- stairs ≤ 6 sweeps/tick: worst {worst[0]:.3g} ({worst[1]}), mean {mean:.3g}")
    outside = [(e["outside_sweeps_share"], n) for n, e in family(results, "breakdown").items()
               if "outside_sweeps_share" in e]
    if outside:
        worst = max(outside)
        lines.append(f"- time outside Bullet's sweeps ≤ 30 %: worst {100 * worst[0]:.0f} % ({worst[1]}), "
                     f"{sum(1 for s, _ in outside if s <= 0.3)}/{len(outside)} within")
    for key, small, large, ratio in growth:
        lines.append(f"- {key}: tick cost with {large} clutter boxes / with {small}: {ratio:.2f} (budget ≤ 2)")
    return "### Budgets\n\n" + "\n".join(lines) if lines else ""


def summary(path):
    context, results = load(path)
    scenario_text, ratios = scenario_section(results)
    pair_text, paired = pair_section(results)
    world_text, growth = world_size_section(results)
    sections = [budgets(results, ratios, growth, paired), scenario_text, pair_text, breakdown_section(results),
                floor_section(results), iterations_section(results), world_text]
    head = f"Results from {context.get('executable', 'stepslide_bench')}, {context.get('date', '')}, " \
           f"{context.get('num_cpus', '?')} CPUs at {context.get('mhz_per_cpu', '?')} MHz."
    return head + "\n\n" + "\n\n".join(s for s in sections if s) + "\n"


def per_tick_us(entry):
    if "us_per_tick" in entry:
        return entry["us_per_tick"], "µs/tick"
    unit = entry.get("time_unit", "ns")
    return entry["real_time"], unit


def compare(before_path, after_path):
    _, before = load(before_path)
    _, after = load(after_path)
    rows = []
    for name in sorted(set(before) | set(after)):
        b, a = before.get(name), after.get(name)
        if b is None or a is None:
            rows.append([name, "–" if b is None else num(per_tick_us(b)[0]), "–" if a is None else num(per_tick_us(a)[0]),
                         "", "only " + ("after" if b is None else "before")])
            continue
        (vb, unit), (va, _) = per_tick_us(b), per_tick_us(a)
        change = (va / vb - 1) * 100 if vb else None
        rows.append([name, num(vb), num(va), unit, f"{change:+.1f} %" if change is not None else "–"])
    return f"Before: {before_path}; after: {after_path}.\n\n" + table(
        ["benchmark", "before", "after", "unit", "change"], rows) + "\n"


def main(argv):
    if len(argv) == 2 and argv[1] not in ("-h", "--help"):
        sys.stdout.write(summary(argv[1]))
        return 0
    if len(argv) == 3:
        sys.stdout.write(compare(argv[1], argv[2]))
        return 0
    sys.stderr.write(__doc__)
    return 0 if len(argv) == 2 else 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (OSError, ValueError, KeyError) as error:
        sys.stderr.write(f"bench_table: {error}\n")
        sys.exit(2)
