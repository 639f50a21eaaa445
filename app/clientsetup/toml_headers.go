package clientsetup

import (
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// keepHeaders returns items with the http_headers line holding, besides
// asktray's Authorization, the person's other headers of the
// [mcp_servers.asktray] table in old (written inline or as a sub-table):
// Authorization first, under the person's spelling of it, then theirs in
// name order. With bearer_token_env_var the person keeps the token out of the
// file (docs/clients.md), so the line holds only their headers, and goes when
// they have none. A table it cannot read so leaves items as they are.
func keepHeaders(old []byte, items []tomlItem) []tomlItem {
	var doc struct {
		MCPServers map[string]struct {
			HTTPHeaders map[string]string `toml:"http_headers"`
			BearerEnv   *string           `toml:"bearer_token_env_var"`
		} `toml:"mcp_servers"`
	}
	if toml.Unmarshal(old, &doc) != nil {
		return items
	}
	have, ok := doc.MCPServers[ServerName]
	if !ok {
		return items
	}
	i := slices.IndexFunc(items, func(it tomlItem) bool { return it.key == "http_headers" })
	if i < 0 {
		return items
	}
	var ours struct {
		H map[string]string `toml:"http_headers"`
	}
	if toml.Unmarshal([]byte(items[i].line), &ours) != nil {
		return items
	}
	var names []string
	merged := map[string]string{}
	for name, v := range have.HTTPHeaders {
		if !strings.EqualFold(name, "Authorization") {
			names, merged[name] = append(names, name), v
		}
	}
	slices.Sort(names)
	if have.BearerEnv == nil {
		auth := "Authorization"
		for name := range have.HTTPHeaders {
			if strings.EqualFold(name, auth) {
				auth = name
			}
		}
		names, merged[auth] = append([]string{auth}, names...), ours.H["Authorization"]
	}
	items = slices.Clone(items)
	if len(names) == 0 {
		return slices.Delete(items, i, i+1)
	}
	pairs := make([]string, len(names))
	for j, name := range names {
		pairs[j] = tomlString(name) + " = " + tomlString(merged[name])
	}
	nl := items[i].line[len(strings.TrimRight(items[i].line, "\r\n")):]
	items[i].line = "http_headers = { " + strings.Join(pairs, ", ") + " }" + nl
	return items
}
