// Package xvfbtest drives the real asktray binary on a private X server (Xvfb) and session bus, as a person would: it finds windows by title, types with xdotool and captures notifications.
package xvfbtest
