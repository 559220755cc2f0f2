#!/bin/sh
# data only: skillgraph never runs a corpus file
exit 0
