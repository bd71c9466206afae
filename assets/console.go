package assets

import "embed"

// Console holds the admin console's pages under console/: layout.html and
// one html/template per page (each defines "main"), console.css and
// console.js. The console also serves document/document.css, the base
// look of the pages and of the contract card it shows.
//
//go:embed console
var Console embed.FS
