package webask

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"html/template"
)

//go:embed assets/page.html assets/style.css assets/arm.js
var assets embed.FS

// styleCSS and armJS are the page's only style sheet and script, inlined
// and allowed by their hashes in the Content-Security-Policy.
var (
	styleCSS = template.CSS(mustRead("assets/style.css")) //nolint:gosec // G203: our embedded file, never input
	armJS    = template.JS(mustRead("assets/arm.js"))     //nolint:gosec // G203: our embedded file, never input
)

// csp allows nothing but the inlined style and script, and forms that post
// back to this origin; no frame may show the page.
var csp = "default-src 'none'; style-src '" + hash(string(styleCSS)) + "'; script-src '" + hash(string(armJS)) +
	"'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

var pages = template.Must(template.New("").ParseFS(assets, "assets/page.html"))

func mustRead(name string) string {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}
