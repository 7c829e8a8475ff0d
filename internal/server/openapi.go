package server

import (
	_ "embed"
	"net/http"
)

// openAPI is the OpenAPI 3.1 description of the API; TestOpenAPI keeps it
// in sync with the routes and the JSON types.
//
//go:embed openapi.json
var openAPI []byte

func serveOpenAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openAPI)
}
