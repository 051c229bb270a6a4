# One result line per subtest of igt_runner's results.json:
#   PASS|FAIL|SKIP <test>/<subtest> (<secs>s)[ reason]
# A subtest's dynamic subtests (igt@test@subtest@dynamic) are not lines of
# their own; those that did not pass are named in their parent's reason.

def verdict:
  if . == "pass" or . == "dmesg-warn" then "PASS"
  elif . == "skip" or . == "notrun" then "SKIP"
  else "FAIL" end;

def secs: if . == null then 0 else (.end - .start) end;

.tests as $t
| $t | keys_unsorted[]
| select(test("^igt@[^@]+(@[^@]+)?$"))
| . as $name
| ($name | split("@")) as $p
| $t[$name] as $r
| ([$t | keys_unsorted[]
    | select(startswith($name + "@"))
    | select($t[.].result | verdict == "FAIL")
    | "\(split("@")[-1]) \($t[.].result)"] | join(", ")) as $dyn
| ($r.result | verdict) as $v
| "\($v) \($p[1])\(if ($p | length) > 2 then "/" + $p[2] else "" end)"
  + " (\($r.time | secs * 100 | round / 100)s)"
  + (if $v == "FAIL" then " " + $r.result
        + (if $dyn != "" then ": " + $dyn else "" end)
     elif $r.result == "dmesg-warn" then " dmesg-warn"
     else "" end)
