#!/usr/bin/env bash
# SM counts the issue-8 campaign never measured: the partition shapes (train and validation) at ten
# more SM counts, and a sealed set of test shapes (configs/shapes/traffic-test-partitions.csv) at
# five of them that no training row has. Same kernels, protocol and resumable chunks as
# cuda/bench/traffic_campaign.sh. Usage: cuda/bench/sm_levels_campaign.sh BIN_DIR OUT_DIR
set -uo pipefail
# Levels the calibration may train on (with 16, 32, 64, 96, 132 of the first campaign).
TRAIN_LEVELS=24,48,80,112,120
# Levels no training row has: validation (validation shapes) and the sealed test set.
UNSEEN_LEVELS=40,56,88,104,128
SETS="" TRACE_SHAPES=0 \
  PARTITIONS="partitions@$TRAIN_LEVELS,$UNSEEN_LEVELS test-partitions@$UNSEEN_LEVELS" \
  exec "$(dirname "$0")/traffic_campaign.sh" "$@"
