#!/bin/sh
exec gofmt -l "$@"
