// Package perf is the JCT, memory and compute model and its data
// (data/jct.toml): it times one training step of a workload on a
// back-end network, over RDMA and over TCP/IP on the same links, breaks
// the step down by fabric effect, checks the job against the GPUs'
// memory and finds the cheapest change that fits.
//
// It sees a plan only through Network, the view the planner fills in
// from the plan as built, and never imports the planner: a Network and
// a Workload in, a JCT out.
package perf
