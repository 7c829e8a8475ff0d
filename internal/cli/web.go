package cli

import (
	"net/http"

	"github.com/clarify-sql/clarify/internal/web"
)

// webHandler serves the embedded chat UI at / (package web).
func webHandler() http.Handler { return web.Handler() }
