// n8n loads the nodes and credentials listed in package.json ("n8n" section); nothing to export here.
module.exports = {};
