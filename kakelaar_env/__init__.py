"""Karel Kakelaar (RULES.md §5): not implemented yet."""
