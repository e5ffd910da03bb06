#!/usr/bin/env bash
# Runs `stepslide fuzz` over a fresh seed range in shards, at the lowest CPU
# priority (nice -n 19), and sums them up: worlds, ticks, violations by kind,
# and for each violation the commands that reproduce it, the smallest
# (fewest ticks after shrinking) of each kind first.
#
# Each shard is one process (`stepslide fuzz --seed S --count SIZE`) with its
# own log in DIR/logs/; findings are saved in DIR/findings/. A shard whose log
# ends with fuzz's closing line is done and is not run again, so a run that
# was stopped resumes where it left off, and only finished shards are counted.
#
# Usage: tools/fuzz-fresh.sh START COUNT [-j N] [--out DIR] [--shard SIZE]
#                            [--stop-at TIME] [--summary]
#   START COUNT   seeds START .. START+COUNT-1 (pick a range nobody ran, e.g.
#                 from `date +%s%N`; CI runs 1..1000 and the commit's range)
#   -j N          shards run at once (default 1)
#   --out DIR     where logs and findings go (default fuzz-fresh-START)
#   --shard SIZE  worlds per shard (default 1000)
#   --stop-at T   start no shard after time T (anything `date -d` reads):
#                 finish by a deadline with every counted shard complete
#   --summary     only print the summary of the shards already run
# Environment: STEPSLIDE, the binary (default build/stepslide, built by
# tools/build.sh when missing).
# Exit: 0 no violation, 1 a violation, 2 usage error or a shard that failed.
set -euo pipefail

usage() {
  sed -n '/^# Usage:/,/^# Exit:/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
die() { echo "fuzz-fresh: $*" >&2; exit 2; }
number() { [[ "$2" =~ ^[0-9]+$ ]] || die "$1 '$2': expected a whole number"; }

[[ $# -ge 2 ]] || usage
start=$1 count=$2
shift 2
number START "$start"
number COUNT "$count"
# Bash counts in signed 64 bits (up to 9.2e18): START + COUNT must fit.
start=$(echo "$start" | sed 's/^0*\(.\)/\1/') count=$(echo "$count" | sed 's/^0*\(.\)/\1/')  # 010 is not octal
[[ ${#count} -le 17 && (${#start} -lt 19 || (${#start} -eq 19 && "$start" < 9000000000000000000)) ]] ||
  die "START must be below 9000000000000000000 and COUNT below 10^17"
jobs=1 out="" shard=1000 stop_at="" summary_only=0
while [[ $# -gt 0 ]]; do
  case $1 in
    -j) number -j "${2:-}"; jobs=$2; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --shard) number --shard "${2:-}"; shard=$2; shift 2 ;;
    --stop-at) stop_at=$(date -d "${2:?--stop-at needs a time}" +%s) || die "--stop-at '$2': not a time"; shift 2 ;;
    --summary) summary_only=1; shift ;;
    *) usage ;;
  esac
done
[[ $jobs -ge 1 && $shard -ge 1 ]] || die "-j and --shard must be at least 1"
out=${out:-fuzz-fresh-$start}
binary=${STEPSLIDE:-build/stepslide}
if [[ $summary_only -eq 0 && ! -x "$binary" ]]; then  # --summary runs nothing
  [[ -z "${STEPSLIDE:-}" ]] || die "STEPSLIDE=$binary is not an executable"
  (cd "$(dirname "$0")/.." && bash tools/build.sh)
  binary="$(cd "$(dirname "$0")/.." && pwd)/build/stepslide"
fi
mkdir -p "$out/logs" "$out/findings"
end=$((start + count))  # one past the last seed

log_of() { echo "$out/logs/shard-$1-$2.log"; }
done_log() { [[ -f "$1" ]] && tail -n 1 "$1" | grep -q '^fuzz: [0-9]* scenarios'; }

run_shard() {  # run_shard FIRST SIZE
  local log
  log=$(log_of "$1" "$2")
  # bash's `time` gives the shard's CPU seconds (user + system), which a busy
  # machine does not inflate the way it does wall time.
  local TIMEFORMAT='%U %S'
  { time nice -n 19 "$binary" fuzz --seed "$1" --count "$2" -j 1 --out-dir "$out/findings" >"$log.part" \
      2>"$log.err"; } 2>"$log.time" && status=0 || status=$?
  if [[ $status -le 1 ]] && done_log "$log.part"; then
    awk '{ print $1 + $2 }' "$log.time" >"$log.cpu"
    rm -f "$log.time"
    mv "$log.part" "$log"
    rm -f "$log.err" "$log.failed"
  else
    rm -f "$log.time"
    mv "$log.err" "$log.failed"
    echo "fuzz-fresh: shard $1 (+$2) failed with exit code $status; see $log.failed" >&2
  fi
}

if [[ $summary_only -eq 0 ]]; then
  echo "fuzz-fresh: seeds $start..$((end - 1)) in shards of $shard, $jobs at once, nice 19, into $out/" >&2
  running=0
  for ((first = start; first < end; first += shard)); do
    size=$((end - first < shard ? end - first : shard))
    done_log "$(log_of "$first" "$size")" && continue
    if [[ -n "$stop_at" && $(date +%s) -ge $stop_at ]]; then
      echo "fuzz-fresh: --stop-at reached; seeds from $first on were not run" >&2
      break
    fi
    if [[ $running -ge $jobs ]]; then
      wait -n || true
      running=$((running - 1))
    fi
    run_shard "$first" "$size" &
    running=$((running + 1))
  done
  wait || true
fi

# The summary, from the finished shards' logs in seed order.
shopt -s nullglob
logs=()
for ((first = start; first < end; first += shard)); do
  size=$((end - first < shard ? end - first : shard))
  log=$(log_of "$first" "$size")
  done_log "$log" && logs+=("$log")
done
shards=$(((count + shard - 1) / shard))
# A shard still running (or killed) has a .part log and is simply not counted.
failures=("$out"/logs/*.failed)
failed=${#failures[@]}
awk -v shards="$shards" -v done_shards="${#logs[@]}" -v binary=stepslide '
  # Seeds compared as decimal text: fewer digits first, then character order.
  function before(a, b) { return length(a) < length(b) || (length(a) == length(b) && a < b) }
  /^fuzz: [0-9]+ scenarios/ {
    worlds += $2
    for (i = 1; i <= NF; i++) if ($(i + 1) == "ticks") ticks += $i
    # Seeds beyond 2^53 do not survive awk numbers: kept as text, and the
    # logs come in seed order, so the first and last say the range.
    split($0, range, /seeds |\.\.|\)/)
    if (lo == "") lo = range[2]
    hi = range[3]
    next
  }
  /^seed [0-9]+: [a-z_]+ at tick / {
    n++; seed[n] = substr($2, 1, length($2) - 1); kind[n] = $3; line[n] = $0; file[n] = ""; shrunk[n] = 1e18
    ++by_kind[$3]
    next
  }
  /^  saved / {
    file[n] = $2
    if (match($0, /ticks [0-9]+ -> [0-9]+/)) { t = substr($0, RSTART, RLENGTH); sub(/.*-> /, "", t); shrunk[n] = t + 0 }
    next
  }
  END {
    printf "fuzz-fresh: %d worlds", worlds
    if (worlds > 0) printf " (seeds %s..%s)", lo, hi
    printf " in %d of %d shards, %d ticks checked, %d violation%s\n", done_shards, shards, ticks, n, n == 1 ? "" : "s"
    if (n == 0) exit
    split("non_finite overlap tunnel rise fall_speed nondeterministic exception", order, " ")
    kinds = ""
    for (o = 1; o in order; o++) if (order[o] in by_kind) kinds = kinds (kinds == "" ? "" : ", ") order[o] " " by_kind[order[o]]
    print "by kind: " kinds
    for (o = 1; o in order; o++) {
      k = order[o]
      if (!(k in by_kind)) continue
      printf "\n%s (%d), smallest reproducer first:\n", k, by_kind[k]
      # Selection by the shrunk tick count, then by seed: a stable order.
      delete used
      for (c = 0; c < by_kind[k]; c++) {
        best = 0
        for (i = 1; i <= n; i++) {
          if (kind[i] != k || (i in used)) continue
          if (best == 0 || shrunk[i] < shrunk[best] || (shrunk[i] == shrunk[best] && before(seed[i], seed[best]))) best = i
        }
        used[best] = 1
        print "  " line[best]
        print "    reproduce: " binary " fuzz --seed " seed[best] " --count 1"
        if (file[best] != "") print "    shrunk:    " binary " fuzz --replay " file[best] (shrunk[best] < 1e18 ? " (" shrunk[best] " ticks)" : "")
      }
    }
  }' ${logs[@]+"${logs[@]}"} /dev/null
# Worlds per CPU-minute, over the finished shards whose CPU time is known.
for log in ${logs[@]+"${logs[@]}"}; do
  [[ -f "$log.cpu" ]] && echo "$(tail -n 1 "$log" | cut -d' ' -f2) $(cat "$log.cpu")"
done | awk '{ worlds += $1; cpu += $2 }
  END { if (cpu >= 0.5) printf "CPU: %.1f s for %d worlds, %d worlds per CPU-minute\n", cpu, worlds, worlds * 60 / cpu }'
[[ $failed -eq 0 ]] || { echo "fuzz-fresh: $failed shard(s) failed; see the .failed files in $out/logs/" >&2; exit 2; }
grep -q '^seed [0-9]*: ' ${logs[@]+"${logs[@]}"} /dev/null && exit 1
exit 0
