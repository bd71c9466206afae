//go:build tools

// Package tools pins modules used by later packages.
package main

import (
	_ "github.com/chromedp/chromedp"
	_ "github.com/getkin/kin-openapi/openapi3"
	_ "github.com/go-viper/mapstructure/v2"
	_ "github.com/google/uuid"
	_ "github.com/knadh/koanf/parsers/yaml"
	_ "github.com/knadh/koanf/providers/confmap"
	_ "github.com/knadh/koanf/providers/env"
	_ "github.com/knadh/koanf/providers/file"
	_ "github.com/knadh/koanf/providers/posflag"
	_ "github.com/knadh/koanf/v2"
	_ "github.com/labstack/echo/v4"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/rs/zerolog"
	_ "github.com/signintech/gopdf"
	_ "github.com/skip2/go-qrcode"
	_ "github.com/spf13/pflag"
	_ "go.etcd.io/bbolt"
	_ "golang.org/x/oauth2"
	_ "golang.org/x/time/rate"
	_ "gopkg.in/yaml.v3"
)
