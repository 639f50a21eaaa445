// Package packaging holds the scripts that make asktray's desktop packages
// (package-linux.sh, run by make package) and the tests that build, install
// and uninstall them; it has no Go code of its own.
package packaging
