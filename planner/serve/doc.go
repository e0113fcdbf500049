// Package serve is the inference and reinforcement-learning model: it
// times serving a model on the planned cluster (prefill compute-bound,
// decode memory-bandwidth-bound, each request's KV cache moved from the
// prefill pool to the decode pool, the decode's expert-parallel
// all-to-all inside or beyond the NVLink domain) and an RL weight sync
// from trainers to rollout workers, with a breakdown per effect and the
// baselines that say what the back end buys. Its constants are in
// data/inference.toml; it reads the GPU and model presets and the
// fabric efficiencies of data/jct.toml through planner/perf.
//
// Like perf it sees a plan only through perf.Network and a few plain
// figures (Cluster), and never imports the planner.
package serve
