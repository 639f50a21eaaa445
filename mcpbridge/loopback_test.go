package mcpbridge

import "github.com/asktray/asktray/app/loopback"

// hostAllowed and originAllowed are the MCP endpoint's Host and Origin
// rules, which app/loopback owns; guard_test.go checks them by these names.
func hostAllowed(host string, extra []string) bool {
	return loopback.Rules{ExtraHosts: extra}.HostAllowed(host)
}

func originAllowed(origin string, extra []string) bool {
	return loopback.Rules{ExtraHosts: extra}.OriginAllowed(origin)
}
