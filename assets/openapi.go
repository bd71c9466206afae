package assets

import _ "embed"

// OpenAPIEmbedded is the OpenAPI 3 description of the embedded signing
// interface (YAML). Its servers entry is a placeholder that server/apidocs
// replaces with embedded.baseURL when serving it.
//
//go:embed openapi/embedded.yaml
var OpenAPIEmbedded []byte

// OpenAPIKey is the OpenAPI 3 description of the key interface (YAML); its
// servers entry is replaced with key.baseURL when served.
//
//go:embed openapi/key.yaml
var OpenAPIKey []byte

// Redoc is the pinned Redoc standalone bundle (npm redoc 2.5.4, MIT; see
// docs/README.md) that renders the /docs page of each listener.
//
//go:embed docs/redoc.standalone.js
var Redoc []byte

// RedocVersion is the npm version of Redoc.
const RedocVersion = "2.5.4"
