"""Prints the slowest tests (their time includes the builds they were first to need), the test files by their total
time, and the closing line of a test run, `N passed, N failed`, from pytest's JUnit XML."""
import collections
import sys
import xml.etree.ElementTree as ET

SLOWEST = 30
FILES = 20

root = ET.parse(sys.argv[1]).getroot()
suites = [root] if root.tag == "testsuite" else list(root)
tests = sum(int(s.get("tests", 0)) for s in suites)
failed = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
skipped = sum(int(s.get("skipped", 0)) for s in suites)
cases = sorted(((float(c.get("time") or 0), f"{c.get('classname')}::{c.get('name')}") for c in root.iter("testcase")),
               reverse=True)
print(f"slowest {SLOWEST} of {len(cases)} tests ({sum(t for t, _ in cases):.0f} s of worker time in all):")
for t, name in cases[:SLOWEST]:
    print(f"  {t:7.1f} s  {name}")
per_file = collections.Counter()
for t, name in cases:
    per_file[name.split("::")[0]] += t
print(f"the {FILES} test files of the longest worker time:")
for name, t in per_file.most_common(FILES):
    print(f"  {t:7.1f} s  {name}")
print(f"{tests - failed - skipped} passed, {failed} failed")
