// Package server is Clarify's HTTP API (docs/api.md): JSON, or the same
// turn streamed as server-sent events when the client asks for
// text/event-stream; event replay from Last-Event-ID; API keys mapped to
// users; metrics, health and the OpenAPI document. It is the outermost
// layer: it calls package conversation and nothing imports it.
package server
