# OpenBench and other testing frameworks build engines with `make EXE=<name>`.
EXE ?= whetstone
CARGO ?= cargo

.PHONY: all clean

all:
	$(CARGO) build --release --bin whetstone
	cp target/release/whetstone $(EXE)

clean:
	$(CARGO) clean
