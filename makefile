# OpenBench and other testing frameworks build engines with `make EXE=<name>`: OpenBench's worker
# runs `make -j EXE=<name>` in the folder its engine config names (openbench/Whetstone.json, build
# path "" = this folder) and takes the binary <name> from there (docs/openbench.md).
EXE ?= whetstone
CARGO ?= cargo
# Cargo features of the engine. `make EXE=<name> FEATURES=uci-tunables` builds the binary an
# OpenBench SPSA tune needs (every tunable value a UCI spin option). OpenBench passes nothing but
# EXE=, so a tuning branch sets this default to uci-tunables instead (docs/openbench.md).
FEATURES ?=
# Where cargo puts its output: CARGO_TARGET_DIR when the environment sets it, else target/.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

.PHONY: all clean

all:
	$(CARGO) build --release --bin whetstone $(if $(strip $(FEATURES)),--features "$(strip $(FEATURES))")
	cp $(TARGET_DIR)/release/whetstone $(EXE)

clean:
	$(CARGO) clean
