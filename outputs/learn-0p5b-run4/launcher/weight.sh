#!/usr/bin/env bash
# Every 20 s: run 4's processes (the learn command, llama.cpp, sandbox workers) get autogroup nice -10.
while true; do
  for p in $(pgrep -f "bs4_env.cli.main learn|llama_server|xllamacpp|bs4_env.sandbox" ); do
    echo -10 > /proc/$p/autogroup 2>/dev/null || true
  done
  sleep 20
done
