// Package web is Clarify's chat in the browser: a page, a style sheet and a
// few JavaScript modules, embedded in the binary and served at / by
// `clarify serve` (package server mounts Handler as Config.Web). It has no
// build step and loads nothing from elsewhere; everything it knows it asks
// the HTTP API under /v1 (docs/api.md), streaming each turn as server-sent
// events. It sits outside the flow of a question: a client of the API, like
// the CLI.
package web
