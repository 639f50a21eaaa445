//go:build !windows

package hookrun

import "github.com/asktray/asktray/app/hookclient"

var dialForTest = hookclient.Dial
