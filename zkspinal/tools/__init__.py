"""What ./run.sh runs around the RTL: the demonstration, keccak-speed, the MSM engine run, host builds."""
