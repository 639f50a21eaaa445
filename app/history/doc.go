// Package history keeps every question and its outcome in a durable, searchable store.
package history
