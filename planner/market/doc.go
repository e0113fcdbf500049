// Package market holds the 650 Group report "RDMA Networking and AI"
// (June 2024) as the charts and the app read it: Table 1 (RDMA revenue
// by technology), Table 2 (by device type) and the server figures its
// text states, loaded and checked from data/market.toml. The planner
// never reads it; it imports nothing of ours but internal/datadoc.
package market
