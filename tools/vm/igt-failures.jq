# The output of every subtest igt_runner did not see pass or skip: its
# name and result, then its stdout and stderr.
.tests | to_entries[]
| select(.value.result | IN("pass", "dmesg-warn", "skip", "notrun") | not)
| "==== \(.key): \(.value.result)\n---- stdout\n\(.value.out // "")"
  + "---- stderr\n\(.value.err // "")"
