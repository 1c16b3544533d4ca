# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# kunit.sh - KUnit results of a guest's console log, read by the parser
# that ships with the kernel (tools/testing/kunit/kunit.py parse), not by
# grep.  Sourced, not run:
#
#	. "$TOP/scripts/lib/kunit.sh"
#	kunit_parse "$SRC" "$LOGS/kunit.log" "$LOGS/kunit" || rc=1
#	read -r ok bad skip < <(kunit_counts "$LOGS/kunit")
#	[[ $(kunit_suite_status "$LOGS/kunit" ps3vram_dma) == PASS ]] || rc=1
#
# SRC is an unpacked kernel source tree (scripts/debug-kernel's linux-source
# cache); its parser reads the console log as the kernel printed it, printk
# time stamps, interleaved kernel messages and all, and judges each case:
# PASS, SKIP, FAIL, or ERROR (the case crashed, or the output stopped before
# its result line: a hung or rebooted guest).  kunit_parse keeps the
# parser's own report in OUT.txt and its JSON (KernelCI's test API, as
# tools/testing/kunit/kunit_json.py writes it) in OUT.json; the other
# functions read OUT.json.

# kunit_parse SRC LOG OUT - run SRC's parser on LOG; OUT.txt, OUT.json.
# Status 0 when the parser found KTAP and every case passed (the parser's
# own exit status), 1 otherwise, 2 when SRC has no parser.
kunit_parse()
{
	local src=$1 log=$2 out=$3 tool rc=0

	tool=$src/tools/testing/kunit/kunit.py
	if [[ ! -f $tool ]]; then
		echo "kunit_parse: no $tool" >&2
		return 2
	fi
	rm -f "$out.json" "$out.txt"
	# kunit.py changes into the source tree: absolute paths only.
	python3 "$tool" parse --json="$(realpath -m "$out.json")" \
		"$(realpath "$log")" > "$out.txt" 2>&1 || rc=1
	# a parser that died before writing its JSON found nothing
	[[ -s $out.json ]] || { echo '{}' > "$out.json"; rc=1; }
	return "$rc"
}

# kunit_counts OUT - "PASSED FAILED SKIPPED": the cases of OUT.json.  A
# crashed case (ERROR) counts as failed; so does a suite whose cases the
# parser could not find (it is then a case of the group itself).
kunit_counts()
{
	python3 - "$1.json" <<'EOF'
import json, sys

def walk(group, counts):
	for case in group.get("test_cases", []):
		counts[{"PASS": 0, "SKIP": 2}.get(case["status"], 1)] += 1
	for sub in group.get("sub_groups", []):
		walk(sub, counts)

counts = [0, 0, 0]
with open(sys.argv[1]) as f:
	walk(json.load(f), counts)
print(*counts)
EOF
}

# kunit_suite_status OUT SUITE - PASS, FAIL, SKIP or MISSING: the suite's
# result by the parser's grouping of cases into suites: FAIL when a case
# failed or crashed, else SKIP when a case was skipped, else PASS; MISSING
# when the suite has no cases in OUT.json.
kunit_suite_status()
{
	python3 - "$1.json" "$2" <<'EOF'
import json, sys

def find(group, name):
	for sub in group.get("sub_groups", []):
		if sub["name"] == name:
			return sub
		hit = find(sub, name)
		if hit:
			return hit
	return None

def statuses(group):
	out = [c["status"] for c in group.get("test_cases", [])]
	for sub in group.get("sub_groups", []):
		out += statuses(sub)
	return out

def bare(group, name):
	# a suite without cases (skipped whole, or crashed before its plan)
	# is a case of its parent group
	out = [c["status"] for c in group.get("test_cases", [])
	       if c["name"] == name]
	for sub in group.get("sub_groups", []):
		out += bare(sub, name)
	return out

with open(sys.argv[1]) as f:
	root = json.load(f)
suite = find(root, sys.argv[2])
got = statuses(suite) if suite else bare(root, sys.argv[2])
if not got:
	print("MISSING")
elif any(s not in ("PASS", "SKIP") for s in got):
	print("FAIL")
elif "SKIP" in got:
	print("SKIP")
else:
	print("PASS")
EOF
}

# kunit_cases OUT STATUS - the names of OUT.json's cases with STATUS
# (PASS, SKIP, FAIL, ERROR), one a line, as SUITE.CASE; a case the parser
# expected from the suite's plan but never saw is SUITE.(missing).
kunit_cases()
{
	python3 - "$1.json" "$2" <<'EOF'
import json, sys

def walk(group, prefix):
	for case in group.get("test_cases", []):
		if case["status"] == sys.argv[2]:
			print(prefix + (case["name"] or "(missing)"))
	for sub in group.get("sub_groups", []):
		walk(sub, sub["name"] + ".")

with open(sys.argv[1]) as f:
	walk(json.load(f), "")
EOF
}

# kunit_tap OUT - OUT.json's cases as TAP: a plan, then "ok N SUITE.CASE",
# "not ok N ..." (failed, crashed or missing) or "ok N ... # SKIP"
kunit_tap()
{
	python3 - "$1.json" <<'EOF'
import json, sys

def walk(group, prefix, out):
	for case in group.get("test_cases", []):
		out.append((prefix + (case["name"] or "(missing)"), case["status"]))
	for sub in group.get("sub_groups", []):
		walk(sub, sub["name"] + ".", out)

cases = []
with open(sys.argv[1]) as f:
	walk(json.load(f), "", cases)
print("1..%d" % len(cases))
for n, (name, status) in enumerate(cases, 1):
	if status == "PASS":
		print("ok %d %s" % (n, name))
	elif status == "SKIP":
		print("ok %d %s # SKIP" % (n, name))
	else:
		print("not ok %d %s (%s)" % (n, name, status))
EOF
}
