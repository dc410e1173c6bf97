"""The playtest lab: simulation, comparison, tuning, tournaments and the seeds' questions.

For notebooks: `import playtable.lab.api as lab` (`lab/api.py`), whose calls return pandas
DataFrames. The API lives in its own module rather than here because its names (`compare`,
`tune`, `tournament`, `playtest`) are also this package's modules, and an imported submodule
would replace a package attribute of the same name.
"""
