#!/bin/bash
# One exact-cover count split over a Slurm job array: each array task counts one shard of
# the search and writes its result record; when every task is done,
#     xcover merge records/*.jsonl
# prints the total (and refuses if a shard is missing, repeated or was interrupted).
#
#     sbatch --export=ALL,PROBLEM=/path/to/problem.dlx docs/recipes/slurm-count.sh
#
# Every task finds its part from SLURM_ARRAY_TASK_ID (--shard auto/N) and saves its position
# every few seconds, so a task that is preempted and requeued goes on where it stopped. For a
# Sudoku, use `xcover sudoku count --shard ... PUZZLE_FILE` instead of `cover count`. The
# number of shards must equal the array's size; N here is the array's, read from Slurm.
#SBATCH --job-name=xcover-count
#SBATCH --array=1-64
#SBATCH --cpus-per-task=2
#SBATCH --requeue
#SBATCH --output=xcover-count-%A_%a.log
set -euo pipefail

problem=${PROBLEM:-problem.dlx}
shards=${SLURM_ARRAY_TASK_COUNT:?run this script with sbatch (a job array)}
task=${SLURM_ARRAY_TASK_ID:?run this script with sbatch (a job array)}
mkdir -p records checkpoints

xcover -j "${SLURM_CPUS_PER_TASK:-1}" cover count --shard "auto/$shards" --format json \
    --checkpoint "checkpoints/$task.txt" "$problem" > "records/$task.jsonl.part"
# Only a finished count becomes a record that merge reads.
mv "records/$task.jsonl.part" "records/$task.jsonl"
