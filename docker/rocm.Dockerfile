# redfuzz on an AMD GPU (RX 9070 XT, gfx1201, or any ROCm GPU): the hip preset built with
# ROCm's own clang, then the README's GPU commands. gfx1201 needs ROCm 6.4.1 or later.
#   docker build -f docker/rocm.Dockerfile -t redfuzz-rocm .
#   docker run --rm --device=/dev/kfd --device=/dev/dri --group-add video redfuzz-rocm
# Another GPU: --build-arg GFX=gfx1100 (CMAKE_HIP_ARCHITECTURES). Not run by our CI (no AMD
# GPU there); CI lints this file (scripts/lint-ci.sh).
ARG ROCM_VERSION=6.4.1
FROM rocm/dev-ubuntu-24.04:${ROCM_VERSION}
ARG GFX=gfx1201
RUN apt-get update && \
    apt-get install -y --no-install-recommends cmake ninja-build libmpfr-dev libgmp-dev && \
    rm -rf /var/lib/apt/lists/*
COPY . /src/redfuzz
WORKDIR /src/redfuzz
RUN cmake --preset hip -DCMAKE_HIP_ARCHITECTURES=${GFX} \
      -DCMAKE_C_COMPILER=/opt/rocm/llvm/bin/clang \
      -DCMAKE_CXX_COMPILER=/opt/rocm/llvm/bin/clang++ \
      -DCMAKE_HIP_COMPILER=/opt/rocm/llvm/bin/clang++ && \
    cmake --build build-hip -j "$(nproc)" --target redfuzz
# The GPU commands: the known failures replayed, then every GPU check (sweep, bits, bench,
# throughput; compute-sanitizer is NVIDIA-only and skipped), logs in out/gpu.
CMD ["bash", "-c", "build-hip/fuzz/redfuzz replay regressions/ && scripts/gpu-verify.sh --build build-hip --out out/gpu --skip sanitize"]
