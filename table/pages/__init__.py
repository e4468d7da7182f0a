"""The table's pages and their forms: thin views that read a form, check the role and
call the layers below."""
