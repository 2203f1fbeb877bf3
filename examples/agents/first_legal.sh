#!/bin/sh
# A rummykit agent in plain POSIX sh + awk: it plays the first legal action it is offered.
# It speaks the agent protocol, version 1 (docs/agents.md): one JSON object per line.
# Try it:   rummykit league examples/agents     or
#           ProcessAgent(["sh", "examples/agents/first_legal.sh"])

# 1. The handshake: protocol version, name, the variants it plays.
printf '%s\n' '{"type":"hello","protocol":1,"name":"first-legal","variants":["hungarian","rommi"]}'

# mawk (Debian's awk) reads its input in blocks unless told -W interactive; other awks
# read a line as soon as it comes. Ask for it where it is understood.
AWK=awk
if awk -W interactive 'BEGIN { exit 0 }' </dev/null >/dev/null 2>&1; then
    AWK="awk -W interactive"
fi

# 2. Every decide line: answer with the question's id and the first object in
#    "legal_actions" (actions hold no nested objects, so it ends at the first "}").
#    A verdict line would mean that action was refused: say so with an error line.
#    The referee's "bye", or the end of the input, ends the program.
exec $AWK '
/"type" *: *"bye"/ { exit 0 }
/"type" *: *"decide"/ {
    id = ""
    if (match($0, /"id" *: *[0-9]+/)) {
        id = substr($0, RSTART, RLENGTH); sub(/.*: */, "", id)
    }
    if (!match($0, /"legal_actions" *: *\[ *\{[^}]*\}/)) {
        printf "{\"type\":\"error\",\"id\":%s,\"message\":\"no legal action found\"}\n", id
        fflush(); next
    }
    action = substr($0, RSTART, RLENGTH); sub(/^[^{]*/, "", action)
    printf "{\"type\":\"action\",\"id\":%s,\"action\":%s}\n", id, action
    fflush(); next
}
/"type" *: *"verdict"/ {
    printf "{\"type\":\"error\",\"message\":\"the first legal action was refused\"}\n"
    fflush()
}
'
