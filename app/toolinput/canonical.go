package toolinput

import "encoding/json"

// Canonical returns raw's canonical JSON, as Fingerprint hashes it: keys
// sorted, insignificant space removed, numbers as written, &, < and > as
// they are. Input that is not one JSON value is returned as it is. Rules
// compare a tool's whole input by it.
func Canonical(raw json.RawMessage) []byte { return canonical(raw) }
