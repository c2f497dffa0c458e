"""ek_env: what people see: the text render, the table view and the record's narration."""
